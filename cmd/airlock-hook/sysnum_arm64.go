//go:build linux

package main

const sysMemfdCreate = 279
