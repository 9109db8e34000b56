-- Concurrency, as io.github.limiter.internal.algorithm.Concurrency: at most N requests in flight,
-- held per node so that a node that dies cannot hold its permits forever. The state is a hash of
-- node id -> "count expiry": what each node holds and until when (microseconds) its hold lives.
-- An entry whose hold ended counts for nothing and is dropped at the next write; the live node
-- re-stamps its entries (renew.lua) well before they end. Params: N, the Retry-After hint, the
-- hold TTL (both microseconds) and this node's id. Sections of straight-line code, spliced by
-- Scripts into decide.lua, adjust.lua and renew.lua: see there for the names each one is given.

--@ head
local PARAMS = 4

--@ fetch
-- Each key's hash as a flat list of fields and values; nil when the key is missing.
local raw = {}
for i = 1, n do
  local h = redis.call('HGETALL', KEYS[i])
  if #h > 0 then raw[i] = h end
end

--@ load
local N, hint = tonumber(ARGV[a]), tonumber(ARGV[a + 1])
local hold, node = tonumber(ARGV[a + 2]), ARGV[a + 3]
local fresh = not raw[i]
-- count: held by every live hold; mine: by this node's; last: the latest other live hold's end
local count, mine, last = 0, 0, now
if raw[i] then
  local h = raw[i]
  for j = 1, #h, 2 do
    local record = h[j + 1]
    --+ record
    if held and expiry > now then
      count = count + held
      if h[j] == node then
        mine = held
      elseif expiry > last then
        last = expiry
      end
    end
  end
end

--@ wait
local wait = NEVER
if permits <= N then
  if count + permits <= N then wait = 0 else wait = hint end
end

--@ fit
-- How many requests of permits (> 0) fit one after the other: while count <= N.
do
  local room = N - count
  if room >= permits then fit = (room - fmod(room, permits)) / permits end
end

--@ admit
count = count + permits
mine = mine + permits

--@ debt
-- After a charge: at most 2N held, as Concurrency.charge; the excess is not this node's to hold.
if count > 2 * N then
  mine = mine - (count - 2 * N)
  if mine < 0 then mine = 0 end
  count = 2 * N
end

--@ refund
do
  local back = permits
  if back > mine then back = mine end
  mine = mine - back
  count = count - back
end

--@ remaining
local left = N - count
if left < 0 then left = 0 end

--@ reset
-- Never 0 while permits are held, so that a held key is never taken for fresh.
local reset = 0
if count > 0 then reset = hint end

--@ delay
local delay = 0

--@ write
-- Drops the ended holds, stores this node's with a new end, and keeps the key as long as its
-- longest hold (at least the caller-time floor).
do
  local h = raw[i]
  if h then
    for j = 1, #h, 2 do
      local record = h[j + 1]
      --+ record
      if h[j] ~= node and (not held or expiry <= now) then redis.call('HDEL', KEYS[i], h[j]) end
    end
  end
  local ends = last
  if mine > 0 then
    redis.call('HSET', KEYS[i], node, format('%d %d', mine, now + hold))
    if now + hold > ends then ends = now + hold end
  else
    redis.call('HDEL', KEYS[i], node)
  end
  local lives = ceil((ends - now) / 1000) + 1
  if lives < ttl_floor then lives = ttl_floor end
  redis.call('PEXPIRE', KEYS[i], format('%d', lives))
end

--@ renew
-- Re-stamps this node's live hold under each key with a new end; an ended one stays ended, since
-- other nodes may have admitted in its place. Returns the number of holds renewed.
local renewed = 0
for i = 1, n do
  local a = 4 + (i - 1) * PARAMS
  local hold, node = tonumber(ARGV[a + 2]), ARGV[a + 3]
  local record = redis.call('HGET', KEYS[i], node) or ''
  --+ record
  if held and expiry > now then
    redis.call('HSET', KEYS[i], node, format('%d %d', held, now + hold))
    local lives = ceil(hold / 1000) + 1
    if lives < ttl_floor then lives = ttl_floor end
    if redis.call('PTTL', KEYS[i]) < lives then redis.call('PEXPIRE', KEYS[i], format('%d', lives)) end
    renewed = renewed + 1
  end
end
return renewed
