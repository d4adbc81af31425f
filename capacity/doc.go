// Package capacity finds the highest rate a server carries within an SLO
// (`pummel capacity`): a closed-loop probe bounds the search, open-loop
// steps at one rate each climb exponentially from the lowest rate until a
// step fails, then bisect between the highest pass and the lowest fail to
// the precision asked, and a confirmation run checks the answer.
//
// A step passes when every threshold holds over its measured time and
// the client kept the schedule. A step the client could not carry (its
// CPU saturated, or every connection busy while the server still answered
// as fast as before) is client-limited: the search stops there and never
// reports pummel's own limit as the server's.
//
// The search order (Next) and the judgement of a step (Judge) are pure
// functions of the steps so far; Search runs them against a Stepper,
// which carries out one load. The package runs no load itself and
// renders nothing: cmd/pummel gives it a Stepper over measure and the
// engine, and renders what it returns.
package capacity
