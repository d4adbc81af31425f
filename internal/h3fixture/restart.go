package h3fixture

// restart is StatelessResetAfter's crash: it closes the transport, which
// ends every connection without a CONNECTION_CLOSE (quic.Transport.Close
// "abruptly terminates" them), and starts a new transport on the same UDP
// socket with the same stateless reset key. A short-header packet for a
// connection the new transport does not know (larger than 42 bytes) draws
// a stateless reset whose token is the one the old transport gave the
// client for that connection ID, so the client's connection ends with
// *quic.StatelessResetError. The caller has added to s.restarts.
func (s *Server) restart() {
	defer s.restarts.Done()
	s.mu.Lock()
	old := s.tr
	s.mu.Unlock()
	// The socket was made by the fixture, so Close leaves it open: the
	// datagrams that arrive meanwhile wait in its buffer for the new
	// transport.
	_ = old.Close()
	if s.listen(1) == nil {
		s.restarted.Store(true)
	}
}
