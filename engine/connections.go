package engine

// Detached notes that the connection's socket was closed: it no longer
// counts among the open connections (Tick.Connections). A transport calls
// it wherever it closes a socket whose connection Attached began; for a
// connection not attached, it does nothing.
func (c *Conn) Detached() {
	if c.attached {
		c.attached = false
		c.Worker.open.Add(-1)
	}
}

// connectionsOpen counts the connections open now, over the workers.
func connectionsOpen(ws []*Worker) int64 {
	var n int64
	for _, w := range ws {
		n += w.open.Load()
	}
	return n
}

// SharesWith notes that c's requests go, from now on, on the connection
// whose counting core is conn: HTTP/3's lanes, each with a core of its
// own, share their QUIC connection, which conn's Attached and Detached
// count. Nothing is served on it by c yet, and the request log numbers it
// as conn.
func (c *Conn) SharesWith(conn *Conn) {
	c.Served, c.Refused, c.Partial = 0, false, 0
	c.opened = conn.opened
}
