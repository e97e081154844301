package bubble

import "github.com/peakload/workshop/internal/given/messages"

// texts are the words this package says, English beside Vietnamese, so a
// translator reads the pair. init adds them to the catalogue
// (internal/given/messages) before this package, or one that imports it, says one.
// Data table: one key a line, its English beside its Vietnamese.
var texts = []messages.Line{
	// The check (cmd/workshop/check.go).
	{Key: "check.timed_out", En: "%s timed out: after %s of real time the goroutines had neither settled (all waiting) nor finished. The machine may be overloaded, and this is no verdict on your code; or a goroutine never waits (see below: running = a loop that spins) or sleeps that long.", Vi: "%s hết giờ: sau %s thời gian thật, các goroutine chưa chạy xong mà cũng chưa cùng đứng chờ. Có thể máy đang quá tải, và như vậy thì chưa nói được gì về code của bạn; hoặc có một goroutine không bao giờ chờ (xem bên dưới: đang chạy = một vòng lặp quay tại chỗ), hay ngủ lâu tới mức đó."},
	{Key: "check.awaited", En: "It waited for: %s.", Vi: "Nó đã chờ: %s."},
	{Key: "check.stalled", En: "%s stopped waiting: after %s of real time it still had not seen %s. A right answer gives it in milliseconds, so the machine most likely stalled (overloaded): this is no verdict on your code; run the check again.", Vi: "%s thôi chờ: sau %s thời gian thật, nó vẫn chưa thấy %s. Một lời giải đúng làm được việc đó trong vài mili giây, nên nhiều khả năng máy đã bị nghẽn (quá tải): đây không phải là kết luận về code của bạn; hãy chạy lại check."},

	// The watchdog of a check in a synctest bubble (internal/harness/bubble).
	{Key: "bubble.timed_out", En: "%s did not finish within %s of real time: the machine may be overloaded, or the bubble's fake clock could not move (testing/synctest moves it only when every goroutine waits on a channel, a timer or a WaitGroup).", Vi: "%s không chạy xong trong %s thời gian thật: có thể máy đang quá tải, hoặc đồng hồ giả của bubble không nhích được (testing/synctest chỉ cho nó chạy khi mọi goroutine đều đang chờ một channel, một timer hay một WaitGroup)."},
	{Key: "bubble.goroutines_head", En: "What the goroutines of the step's code were doing (stacks trimmed to %s):", Vi: "Các goroutine trong code của bước này đang làm gì (stack chỉ giữ các frame trong %s):"},
	{Key: "bubble.goroutine", En: "  %s [%s]:", Vi: "  %s [%s]:"},
	{Key: "bubble.no_goroutine", En: "No goroutine was in the step's code: it was all in the runtime or the testing package.", Vi: "Không goroutine nào đang ở trong code của bước này: tất cả đều nằm trong runtime hoặc package testing."},
	{Key: "bubble.on_mutex", En: "blocked on a mutex (sync.Mutex or RWMutex): synctest does not count that as waiting, so a lock held across a write that is stuck freezes the clock", Vi: "kẹt ở một mutex (sync.Mutex hoặc RWMutex): synctest không tính đó là đang chờ, nên giữ lock trong lúc một lần ghi bị treo sẽ làm đồng hồ đứng yên"},
	{Key: "bubble.on_channel", En: "blocked on a channel or a select", Vi: "kẹt ở một channel hoặc một select"},
	{Key: "bubble.on_io", En: "in a system call or waiting on I/O", Vi: "đang trong một system call hoặc chờ I/O"},
	{Key: "bubble.running", En: "running without ever waiting: a loop that spins", Vi: "đang chạy mà không bao giờ chờ: một vòng lặp quay tại chỗ"},
	{Key: "bubble.sleeping", En: "sleeping (time.Sleep)", Vi: "đang ngủ (time.Sleep)"},
	{Key: "bubble.on_waitgroup", En: "waiting on a sync.WaitGroup", Vi: "đang chờ một sync.WaitGroup"},
	{Key: "bubble.on_other", En: "waiting", Vi: "đang chờ"},
}

func init() { messages.Add(texts) }
