package quicgo

import (
	"errors"
	"fmt"

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
// error.
func closeCause(err error) string {
	var (
		app   *quic.ApplicationError
		trans *quic.TransportError
	)
	switch {
	case errors.As(err, &app) && app.Remote:
		return withReason("by the server ("+h3.ErrCode(app.ErrorCode).String()+")", app.ErrorMessage)
	case errors.As(err, &app):
		return withReason("by pummel ("+h3.ErrCode(app.ErrorCode).String()+")", app.ErrorMessage)
	case errors.As(err, &trans) && trans.Remote:
		return withReason("by the server (QUIC "+trans.ErrorCode.String()+")", trans.ErrorMessage)
	case errors.As(err, &trans):
		return withReason("QUIC "+trans.ErrorCode.String(), trans.ErrorMessage)
	case errors.As(err, new(*quic.IdleTimeoutError)):
		return "idle timeout"
	case errors.As(err, new(*quic.StatelessResetError)):
		return "stateless reset"
	}
	return err.Error()
}

// withReason adds the reason phrase a close carried, if any.
func withReason(s, reason string) string {
	if reason == "" {
		return s
	}
	return fmt.Sprintf("%s: %q", s, reason)
}

// stopSending tells a write the server stopped with STOP_SENDING: the
// response may still come.
func stopSending(err error) bool {
	var se *quic.StreamError
	return errors.As(err, &se) && se.Remote
}
