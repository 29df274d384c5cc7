package main

// MERGE (lead): the one place airlock-run gets its egress proxy. Set
// runner.NewDoor to a constructor of internal/contain/egress's proxy,
// with the policy's egress: section and the journal, e.g.:
//
//	func init() {
//		runner.NewDoor = func(getenv func(string) string, stderr io.Writer) (runner.Door, error) {
//			return egress.New(egress.Options{ /* policy, journal, CA from airlock's secrets */ })
//		}
//	}
//
// *egress.Proxy has Serve(net.Listener), Close() and CACertPEM(), which is
// runner.Door. Until then this build refuses to run without
// --proxy-socket: it never runs a command uncontained.
