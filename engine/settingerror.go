package engine

import (
	"fmt"
	"strings"
)

// SettingError is a Config that cannot run. Validate is the one place
// where the settings are checked against each other, and its callers name
// the settings their own way: cmd/pummel by flag, suite by plan field.
// Setting names the setting at fault ("connections", "rate"), and Needs the
// setting whose absence is the fault, if that is it ("http2": streams
// are HTTP/2's); the message names any other setting as {setting}, which
// Text spells as a caller does.
type SettingError struct {
	Setting string
	Msg     string // the message with each {setting} spelled as is
	Needs   string

	format string // Msg's format, before its {setting}s are spelled
	args   []any
}

// Error reads "setting: message", and "(needs setting)" for a missing one.
func (e *SettingError) Error() string {
	msg := e.Setting + ": " + e.Msg
	if e.Needs != "" {
		msg += " (needs " + e.Needs + ")"
	}
	return msg
}

// Text is the message with each {setting} it names spelled by spell: a
// flag, a plan's field.
func (e *SettingError) Text(spell func(setting string) string) string {
	if e.format == "" {
		return e.Msg
	}
	return fmt.Sprintf(spellSettings(e.format, spell), e.args...)
}

// spellSettings replaces each {setting} of format with spell(setting).
// Only a format is spelled, never its arguments, which may hold what the
// user typed.
func spellSettings(format string, spell func(string) string) string {
	var b strings.Builder
	for {
		open := strings.IndexByte(format, '{')
		end := strings.IndexByte(format[open+1:], '}')
		if open < 0 || end < 0 {
			return b.String() + format
		}
		b.WriteString(format[:open])
		b.WriteString(spell(format[open+1 : open+1+end]))
		format = format[open+1+end+1:]
	}
}

// invalid returns a *SettingError for setting: format may name other
// settings as {setting}.
func invalid(setting, format string, args ...any) error {
	return settingError(setting, "", format, args)
}

// needs returns a *SettingError for setting, which applies only with
// needed set.
func needs(setting, needed, format string, args ...any) error {
	return settingError(setting, needed, format, args)
}

func settingError(setting, needed, format string, args []any) *SettingError {
	e := &SettingError{Setting: setting, Needs: needed, format: format, args: args}
	e.Msg = e.Text(func(s string) string { return s })
	return e
}
