package main

import (
	"time"

	"github.com/pummel-dev/pummel/engine"
	"github.com/pummel-dev/pummel/environment"
	"github.com/pummel-dev/pummel/proc"
	"github.com/pummel-dev/pummel/stats"
	"github.com/pummel-dev/pummel/threshold"
	"github.com/urfave/cli/v2"
)

// session is one command that loads (`pummel [run]`, demo, capacity),
// from its flags to its described result. Both commands go through the
// same steps in the same order: prepare reads and checks everything
// before a byte is sent or a file opened, open takes what the load holds
// (the output FIFOs, the limits), and describe fills in what every result
// says of the run, the same way for a load and for a search.
type session struct {
	cfg        engine.Config
	plan       watchPlan
	thresholds []threshold.Expr // a load's --threshold, or a search's SLO
	outs       []output         // the files written at the end, FIFOs among them
	progress   *progressLine    // nil without live progress
}

// sessionRules are what one command adds to the shared steps: how it
// reads its thresholds, and its own checks of the plan, made before the
// script runs.
type sessionRules struct {
	thresholds func(o *options, plan watchPlan, targets []engine.Target) ([]threshold.Expr, error)
	check      func(cfg engine.Config, plan watchPlan) error
}

// prepare reads and checks the load's flags, in this order: the config,
// the output format and progress, the output files, the server to watch,
// the thresholds, the command's own checks, and the script (whose init
// runs here). Nothing is opened or sent; the caller closes the session.
func (l *loader) prepare(c *cli.Context, outs []output, rules sessionRules) (*session, error) {
	s := &session{outs: outs}
	var err error
	if s.cfg, err = l.opts.config(c.Context); err != nil {
		return nil, err
	}
	noteUnmatched(l.stderr, s.cfg)
	if err := l.opts.outputFormat(); err != nil {
		return nil, err
	}
	if l.progress, err = l.opts.progressMode(); err != nil {
		return nil, err
	}
	if err := checkOutputs(outs); err != nil {
		return nil, err
	}
	if l.export, err = l.opts.export.plan(c, s.cfg, l.rec); err != nil {
		return nil, err
	}
	if s.plan, err = l.opts.watchPlan(s.cfg.ConnectTo); err != nil {
		return nil, err
	}
	if s.thresholds, err = rules.thresholds(l.opts, s.plan, s.cfg.Targets); err != nil {
		return nil, err
	}
	if rules.check != nil {
		if err := rules.check(s.cfg, s.plan); err != nil {
			return nil, err
		}
	}
	if s.cfg.Script, err = l.loadScript(c.Context, &s.cfg); err != nil {
		return nil, err
	}
	return s, nil
}

// open takes what the load holds: the output FIFOs (their readers waited
// for), the thread and file limits its connections need; and records
// the load's shape, as the header and every output say it. cfg is final
// once open is called.
func (l *loader) open(c *cli.Context, s *session) error {
	var err error
	if l.fifos, err = openFIFOs(c.Context, s.outs, fifoWait); err != nil {
		return err
	}
	raiseProcs(s.cfg.Threads)
	// This process holds its part's connections, not the whole load's.
	if err := raiseFileLimit(int(s.cfg.Shard.Share(int64(s.cfg.Connections)))); err != nil {
		return exitError{exitFailed, err.Error()}
	}
	l.shape = l.rec.recordedConfig(s.cfg)
	l.shape.Runs = s.plan.runs
	s.progress = newProgress(l.stderr, l.progress)
	l.exports = l.export.start()
	return nil
}

// close ends what prepare and open took.
func (l *loader) close(s *session) {
	l.exports.stop()
	l.fifos.close()
	if s.cfg.Script != nil {
		s.cfg.Script.Close()
	}
}

// describe fills in what every result says of its run once it ended: the
// command line as sent (secrets redacted), the parts it is made of
// (--runs, a search's steps) each under the result's one config, the
// shard and start, the machine and the server's binary, and the
// thresholds judged.
func (l *loader) describe(s *session, res *stats.Result) {
	res.Config = l.rec.sentConfig(l.shape, res.Config)
	for i := range res.Runs {
		res.Runs[i].Config = stats.Config{}
	}
	for i := range res.Steps { // each ran the load the config describes, at its own rate
		res.Steps[i].Config = stats.Config{}
	}
	identify(res, s.cfg)
	l.rec.scrub(res)
	res.Environment = environment.Describe(environment.Version(version), time.Now())
	if s.plan.exec != nil && !s.plan.exec.Shell {
		if b, _, err := proc.DescribeServer(s.plan.exec.Command); err == nil {
			res.Environment.Binary = &b
		}
	}
	res.Thresholds = threshold.Check(s.thresholds, *res)
}
