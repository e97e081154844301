//go:build !linux

package latency

import (
	"syscall"
	"time"
)

// timer waits with Go's timers outside Linux (a millisecond coarse).
type timer struct{}

func newTimer() *timer { return &timer{} }

func (*timer) sleepUntil(t time.Time) { time.Sleep(time.Until(t)) }

func (*timer) close() {}

func childAttr() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setpgid: true} }
