//go:build !linux

package proc

// TreeCPUSeconds is not measured outside Linux (no /proc): 0.
func TreeCPUSeconds(pids []int) float64 { return 0 }

// CPUBusy is not measured outside Linux: nil, so no window is ever called busy.
func CPUBusy() map[int]float64 { return nil }
