package latency

import (
	"os"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// timer waits until a deadline with the kernel's precision: a timerfd that
// the goroutine reads through Go's network poller. Go's own timers wake up
// to a millisecond late when the process is idle (the poller's timeout is
// in whole milliseconds), too coarse for a 0.2 ms delay; a timerfd wakes
// the poller when it fires, and no thread is held while waiting. (An
// earlier proxy slept each connection's thread in nanosleep(2): under a
// loaded CPU its dozens of threads and the scheduler spinning for work
// turned 0.2 ms into 5–20 ms and Redis reads into timeouts.)
type timer struct {
	fd  int
	f   *os.File
	buf [8]byte
}

func newTimer() *timer {
	fd, err := unix.TimerfdCreate(unix.CLOCK_MONOTONIC, unix.TFD_NONBLOCK|unix.TFD_CLOEXEC)
	if err != nil {
		return &timer{fd: -1}
	}
	// A non-blocking fd makes os.NewFile register it with the poller.
	// (Never call f.Fd(): it would switch the fd back to blocking.)
	return &timer{fd: fd, f: os.NewFile(uintptr(fd), "timerfd")}
}

// sleepUntil returns at t.
func (t *timer) sleepUntil(at time.Time) {
	d := time.Until(at)
	if d <= 0 {
		return
	}
	if t.fd >= 0 {
		spec := unix.ItimerSpec{Value: unix.NsecToTimespec(d.Nanoseconds())}
		if unix.TimerfdSettime(t.fd, 0, &spec, nil) == nil {
			if _, err := t.f.Read(t.buf[:]); err == nil {
				return
			}
		}
	}
	time.Sleep(time.Until(at))
}

func (t *timer) close() {
	if t.f != nil {
		t.f.Close()
	}
}

// childAttr makes the kernel stop a proxy process if the workshop dies.
func childAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGTERM}
}
