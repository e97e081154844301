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

// childAttr starts the step server in its own process group.
func childAttr() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setpgid: true} }
