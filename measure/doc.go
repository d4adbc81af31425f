// Package measure carries out a measured load against a server under
// test, the same way for the command line (`pummel URL` with --pid or
// --exec) and for plans (`pummel suite`): it watches the server's
// processes (Attach), samples their idle RSS (Watch.Idle), runs the
// engine's load with them watched and attaches what they used to the
// result (Watch.Load). It also bounds how many fresh server processes a
// measurement starts (MaxRuns).
//
// It never parses flags or plans, never decides exit codes and never
// renders: its callers do. Starting and stopping a server is proc's.
package measure
