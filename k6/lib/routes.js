// The step servers' routes, as internal/given/routes declares them in Go (the
// k6 package's TestRoutesAgreeWithGo holds the two together): a script
// requests path(route, id) and tags it GET(route), the name the results
// and the Go driver give the row.
export const Items = '/items/:id';
export const Cached = '/cached/items/:id';
export const ETag = '/etag/items/:id';
export const Coalesced = '/coalesced/items/:id';
export const Burst = '/burst/items/:id';
export const Change = '/items/:id/change';
export const Empty = '/empty';
export const Validate = '/validate';
export const EventsSync = '/events/sync';
export const EventsAsync = '/events/async';
export const EventsGroup = '/events/group';
export const EventsBulk = '/events/bulk';
export const CountersSync = '/counters/sync/:id';
export const CountersAsync = '/counters/async/:id';
export const CountersBulk = '/counters/bulk/:id';
export const CountersReduce = '/counters/reduce/:id';
export const LoginV1 = '/v1/login';
export const LoginV2 = '/v2/login';

// path is route with id in place of :id: path(Cached, 7) is '/cached/items/7'.
export function path(route, id) { return route.replace(':id', String(id)); }

// GET and POST are a route as the results and the Go driver name it.
export function GET(route) { return `GET ${route}`; }
export function POST(route) { return `POST ${route}`; }
