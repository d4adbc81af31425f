package measure

// MaxRuns bounds how many fresh server processes one measurement starts
// one after another: --runs, and a plan's runs.
const MaxRuns = 1000
