package quicgo

import (
	"fmt"
	"syscall"
)

// wantBuffer is the UDP receive buffer quic-go asks for (its
// protocol.DesiredReceiveBufferSize): less, and datagrams a burst brings
// are dropped by the kernel before quic-go reads them.
const wantBuffer = 7 << 20

// warnBuffers says once, as a warning of the run, when a socket got less
// receive buffer than quic-go asked for (net.core.rmem_max caps it, and
// only root may exceed it). quic-go's own log line is silenced by then.
func (t *transport) warnBuffers() {
	for _, s := range t.sockets {
		if s == nil {
			continue
		}
		raw, err := s.udp.SyscallConn()
		if err != nil {
			return
		}
		size := 0
		raw.Control(func(fd uintptr) { //nolint:errcheck // a failed read leaves size 0, and no warning
			size, _ = syscall.GetsockoptInt(int(fd), syscall.SOL_SOCKET, syscall.SO_RCVBUF)
		})
		if got := size / 2; got > 0 && got < wantBuffer { // Linux reports twice what it grants
			t.load.Warn(fmt.Sprintf("the UDP receive buffer is %d KiB, below the %d KiB quic-go asks for: "+
				"raise it with sysctl -w net.core.rmem_max=%d, or datagrams may be dropped under load", got>>10, wantBuffer>>10, wantBuffer))
		}
		return
	}
}
