package interp

import "strings"

// sockets rates code that opens network sockets or looks names up
// (FINDINGS-7 G8): a raw connection or datagram carries whatever the
// code sends, and a name looked up carries its own text to the resolver
// (gethostbyname(data + ".example.com")): a look-up is a write beyond the
// machine, a socket is opaque (held) as the readers of each language
// rate the ones they know, here found under any module alias too. Code whose only addresses are written loopback ones
// (127.0.0.1, localhost, ::1) and that looks no name up keeps the rating
// the language's reader gave it.
func (s *interpScan) sockets(lang string) {
	src := s.code.src
	var lookups, sockets []string
	has := func(words ...string) string {
		for _, w := range words {
			if s.mentions(w) > 0 {
				return w
			}
		}
		return ""
	}
	quoted := func(names ...string) bool {
		for _, n := range names {
			if strings.Contains(src, `"`+n+`"`) || strings.Contains(src, `'`+n+`'`) {
				return true
			}
		}
		return false
	}
	switch lang {
	case Python:
		if w := has("gethostbyname", "gethostbyname_ex", "getaddrinfo", "gethostbyaddr", "getnameinfo"); w != "" {
			lookups = append(lookups, w)
		}
		if w := has("create_connection", "sendto", "connect_ex"); w != "" {
			sockets = append(sockets, w)
		}
		if strings.Contains(src, "socket") {
			if w := has("connect", "sendall", "send"); w != "" {
				sockets = append(sockets, w)
			}
		}
	case JavaScript:
		if quoted("dns", "node:dns", "dns/promises", "node:dns/promises") {
			if w := has("lookup", "resolve", "resolve4", "resolve6", "resolveTxt", "resolveAny", "resolveCname", "reverse"); w != "" {
				lookups = append(lookups, w)
			}
		}
		if quoted("net", "node:net", "dgram", "node:dgram", "tls", "node:tls") {
			if w := has("connect", "createConnection", "createSocket", "send", "write"); w != "" {
				sockets = append(sockets, w)
			}
		}
	case Perl:
		if w := has("gethostbyname", "gethostbyaddr", "getaddrinfo", "inet_aton"); w != "" {
			lookups = append(lookups, w)
		}
		if strings.Contains(src, "IO::Socket") || s.mentions("socket") > 0 && (s.mentions("connect") > 0 || s.mentions("send") > 0) {
			sockets = append(sockets, "IO::Socket")
		}
	case Ruby:
		if strings.Contains(src, "Resolv") || s.mentions("getaddress") > 0 || s.mentions("getaddrinfo") > 0 || s.mentions("gethostbyname") > 0 {
			lookups = append(lookups, "Resolv")
		}
		if strings.Contains(src, "TCPSocket") || strings.Contains(src, "UDPSocket") || strings.Contains(src, "Socket.tcp") || strings.Contains(src, "Socket.udp") {
			sockets = append(sockets, "TCPSocket")
		}
	case PHP:
		if w := has("gethostbyname", "gethostbynamel", "dns_get_record", "checkdnsrr"); w != "" {
			lookups = append(lookups, w)
		}
		// PHP's sockets (fsockopen) are opaque by php.go's reader.
	}
	if len(lookups) > 0 {
		s.write("interp.dns", s.who+" code looks a name up ("+lookups[0]+"), which sends the name, and any data in it, to the resolver")
		return
	}
	if len(sockets) == 0 {
		return
	}
	for _, lo := range []string{"127.0.0.1", "localhost", "::1", "/tmp/", ".sock"} {
		if strings.Contains(src, lo) {
			return // a loopback or local socket, written in the code
		}
	}
	// Opaque, as each language's reader rates the sockets it knows: what
	// the code sends cannot be read, and it is held.
	s.hide("interp.socket", s.who+" code opens a network socket ("+sockets[0]+") and may send it anything")
}
