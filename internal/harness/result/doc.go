// Package result is the results/*.json schema and what reads it: a step's
// Result with its Runs, Claims, Series and capacity searches, the verdicts
// and the rules that decide them, and the table every step prints. It
// measures nothing (internal/harness/load and internal/harness/proc fill it), so make
// report, make compare and the docs read results without the load driver.
package result
