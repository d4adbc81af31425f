package quicgo

import (
	"errors"

	"github.com/pummel-dev/pummel/engine/h3"
	"github.com/quic-go/quic-go"
)

// connClosed tells an error that says the QUIC connection is gone:
// closed by either side, timed out idle, or reset statelessly.
func connClosed(err error) bool {
	var (
		app   *quic.ApplicationError
		trans *quic.TransportError
		idle  *quic.IdleTimeoutError
		reset *quic.StatelessResetError
	)
	return errors.As(err, &app) || errors.As(err, &trans) || errors.As(err, &idle) ||
		errors.As(err, &reset) || errors.Is(err, quic.ErrTransportClosed)
}

// closeCause says how the connection of err ended, for a lost stream's
// error. The reason phrase a close carries is left out: it is the
// server's free text, and a cause is a key every such error adds to.
func closeCause(err error) string {
	var (
		app   *quic.ApplicationError
		trans *quic.TransportError
	)
	switch {
	case errors.As(err, &app) && app.Remote:
		return "by the server (" + h3.ErrCode(app.ErrorCode).String() + ")"
	case errors.As(err, &app):
		return "by pummel (" + h3.ErrCode(app.ErrorCode).String() + ")"
	case errors.As(err, &trans) && trans.Remote:
		return "by the server (QUIC " + trans.ErrorCode.String() + ")"
	case errors.As(err, &trans):
		return "QUIC " + trans.ErrorCode.String()
	case errors.As(err, new(*quic.IdleTimeoutError)):
		return "idle timeout"
	case errors.As(err, new(*quic.StatelessResetError)):
		return "stateless reset"
	}
	return err.Error()
}

// stopSending tells a write the server stopped with STOP_SENDING: the
// response may still come.
func stopSending(err error) bool {
	var se *quic.StreamError
	return errors.As(err, &se) && se.Remote
}
