package redisconn

import (
	"encoding"
	"errors"
	"fmt"
	"net"
	"strconv"
	"time"

	"github.com/redis/go-redis/v9"
)

// A request's Redis bytes (its metrics.Tally) cannot be read on the
// connection: go-redis tells a hook the command and its context, not which
// pooled connection carried it. So the hook sizes the exchange instead:
// the command as go-redis encodes it (RESP arrays of bulk strings) and the
// reply as RESP3 sends it (go-redis says HELLO 3; Redis ≥ 6 answers in
// RESP3). TestExchangeSizeMatchesTheWire holds this to the connection's
// own count for every command shape the workshop's code sends; the
// connection's handshake (HELLO, CLIENT SETINFO) belongs to no request
// and is in the global counters only.

// exchangeSize is the RESP bytes of cmd and its reply, 0 when the reply
// never came (a timeout, a closed connection: what went out is unknown).
func exchangeSize(cmd redis.Cmder, err error) int64 {
	reply, ok := replySize(cmd, err)
	if !ok {
		return 0
	}
	return commandSize(cmd.Args()) + reply
}

// commandSize mirrors go-redis' proto.Writer.WriteArgs.
func commandSize(args []any) int64 {
	n := header(len(args))
	for _, a := range args {
		n += bulk(len(argBytes(a)))
	}
	return n
}

// argBytes is an argument as go-redis writes it (proto.Writer.WriteArg).
func argBytes(a any) []byte {
	switch v := a.(type) {
	case nil:
		return nil
	case string:
		return []byte(v)
	case []byte:
		return v
	case int:
		return strconv.AppendInt(nil, int64(v), 10)
	case int8, int16, int32, int64:
		return fmt.Append(nil, v)
	case uint, uint8, uint16, uint32, uint64:
		return fmt.Append(nil, v)
	case float32:
		return strconv.AppendFloat(nil, float64(v), 'f', -1, 64)
	case float64:
		return strconv.AppendFloat(nil, v, 'f', -1, 64)
	case bool:
		if v {
			return []byte("1")
		}
		return []byte("0")
	case time.Time:
		return v.AppendFormat(nil, time.RFC3339Nano)
	case time.Duration:
		return strconv.AppendInt(nil, v.Nanoseconds(), 10)
	case encoding.BinaryMarshaler:
		b, _ := v.MarshalBinary()
		return b
	case net.IP:
		return v
	}
	return fmt.Append(nil, a)
}

// replySize is the RESP3 size of cmd's reply, for the reply types the
// workshop's commands get; ok is false when no reply was read.
func replySize(cmd redis.Cmder, err error) (int64, bool) {
	var re redis.Error
	switch {
	case errors.Is(err, redis.Nil):
		return null, true
	case errors.As(err, &re):
		return simple(len(re.Error())), true // -ERR …
	case err != nil:
		return 0, false
	}
	switch c := cmd.(type) {
	case *redis.StringCmd:
		return bulk(len(c.Val())), true
	case *redis.StatusCmd:
		return simple(len(c.Val())), true
	case *redis.IntCmd:
		return simple(len(strconv.FormatInt(c.Val(), 10))), true
	case *redis.BoolCmd:
		if c.Name() == "set" { // SET … NX: OK or null, read as true or false
			if c.Val() {
				return simple(len("OK")), true
			}
			return null, true
		}
		return simple(1), true // :0 or :1
	case *redis.Cmd:
		return valueSize(c.Name(), c.Val()), true
	}
	return valueSize(cmd.Name(), nil), true
}

// valueSize sizes a generic reply (rdb.Do): a string is a status for the
// commands that answer OK, a bulk string otherwise.
func valueSize(name string, v any) int64 {
	switch x := v.(type) {
	case nil:
		return null
	case string:
		switch name {
		case "set", "setex", "psetex", "mset", "ping", "multi":
			return simple(len(x))
		}
		return bulk(len(x))
	case int64:
		return simple(len(strconv.FormatInt(x, 10)))
	case []any:
		n := header(len(x))
		for _, e := range x {
			n += valueSize("", e)
		}
		return n
	}
	return bulk(len(fmt.Sprint(v)))
}

// txSize sizes a MULTI … EXEC pipeline: +OK, +QUEUED per command, then
// EXEC's array of the commands' replies.
func txSize(cmds []redis.Cmder) int64 {
	inner := cmds[1 : len(cmds)-1]
	n := commandSize(cmds[0].Args()) + simple(len("OK")) + commandSize(cmds[len(cmds)-1].Args()) + header(len(inner))
	for _, c := range inner {
		reply, ok := replySize(c, c.Err())
		if !ok {
			return 0
		}
		n += commandSize(c.Args()) + simple(len("QUEUED")) + reply
	}
	return n
}

// RESP framing: *N\r\n, $N\r\n…\r\n, +…\r\n (or :…, -…), _\r\n.
const null = 3

func header(n int) int64 { return int64(1 + len(strconv.Itoa(n)) + 2) }
func bulk(n int) int64   { return header(n) + int64(n) + 2 }
func simple(n int) int64 { return int64(1 + n + 2) }
