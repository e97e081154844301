//go:build !linux

package balancer

import "syscall"

// childAttr: no parent-death signal outside Linux; `make down` stops
// what a dead workshop left behind (pid files).
func childAttr() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setpgid: true} }
