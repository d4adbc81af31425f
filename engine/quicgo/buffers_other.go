//go:build !linux

package quicgo

// warnBuffers checks nothing where the socket's buffer cannot be read the
// Linux way.
func (t *transport) warnBuffers() {}
