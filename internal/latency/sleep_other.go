//go:build !linux

package latency

import (
	"syscall"
	"time"
)

// sleepUntil waits until t; outside Linux with Go's timer resolution.
func sleepUntil(t time.Time) { time.Sleep(time.Until(t)) }

func childAttr() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setpgid: true} }
