// Package proc is the processes and CPUs around a measurement: the CPU
// plan this machine gets and the pinning that applies it, the step server's
// process, its /metrics counters and their per-interval series, and CPU
// time read from /proc. It drives no load (internal/harness/load does).
package proc
