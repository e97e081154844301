'use strict';
// The tracking event's limits, as internal/given/tracking holds them, for the
// originals that validate an event at the edge (article D's "Strict
// Validation ... lọc dữ liệu rác ngay từ tầng gateway").
// {"event_name":"click","data":{"button":"buy"},"timestamp":1632404556}

const MAX_NAME_LEN = 64; // tracking.MaxNameLen
const MAX_DATA_SIZE = 16 << 10; // tracking.MaxDataSize, bytes of data's JSON
const NAME_PATTERN = '^[A-Za-z0-9_.-]+$'; // letters, digits, '_', '-' and '.'
const EARLIEST = Date.UTC(2000, 0, 1) / 1000; // unix seconds: older is a unit bug

// latest is the newest timestamp accepted: now + 24 h (milliseconds sent
// as seconds land far beyond it).
function latest() {
  return Math.floor(Date.now() / 1000) + 24 * 3600;
}

// BODY_LIMIT caps a request body, as the Go servers' server.BodyLimit.
const BODY_LIMIT = 64 << 10;

module.exports = { MAX_NAME_LEN, MAX_DATA_SIZE, NAME_PATTERN, EARLIEST, BODY_LIMIT, latest };
