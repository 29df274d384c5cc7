//go:build linux

package main

const sysMemfdCreate = 319
