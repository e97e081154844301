//go:build !linux

package proc

import "syscall"

// Pin is a no-op where the OS has no CPU affinity API for other processes
// (macOS): the server and the driver then share every core, and the tables
// say "pinned: false".
func Pin(pid int, cpus []int) error { return nil }

const canPin = false

// PinTree is a no-op without a CPU affinity API.
func PinTree(pid int, cpus []int) error { return nil }

// childAttr starts a Child in its own process group: no parent-death
// signal outside Linux; `make down` stops what a dead workshop left behind
// (pid files).
func childAttr() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setpgid: true} }
