-- Sliding window log, as io.github.limiter.internal.algorithm.SlidingWindowLog: a list of the
-- admission times of the last N permits, oldest first; entries with t <= now - W have dropped out,
-- and are trimmed on the next admission. Params: W, N. Sections of straight-line code, spliced by
-- Scripts into decide.lua and adjust.lua: see there for the names each one is given (i, a, raw)
-- and must define.

--@ head
local PARAMS = 2

--@ fetch
-- Per key, three slots: the list's size, how many of its entries have expired, the newest entry.
-- A list key exists only while it holds entries.
local raw = {}
for i = 1, n do
  local W = tonumber(ARGV[4 + (i - 1) * PARAMS])
  local size = redis.call('LLEN', KEYS[i])
  local expired, last = 0, 0
  if size > 0 then
    last = tonumber(redis.call('LINDEX', KEYS[i], -1))
    if now - last >= W then
      expired = size
    else
      -- Expired entries lead the list, and are few while it is in use: one read sees the first few.
      local head = redis.call('LRANGE', KEYS[i], 0, 7)
      while expired < #head and now - tonumber(head[expired + 1]) >= W do expired = expired + 1 end
      if expired == #head then
        -- More than those: entries are ordered, so search for the first live one. lo is expired,
        -- hi is live (the newest entry is).
        local lo, hi = expired - 1, size - 1
        while hi - lo > 1 do
          local mid = math.floor((lo + hi) / 2)
          if now - tonumber(redis.call('LINDEX', KEYS[i], mid)) >= W then lo = mid else hi = mid end
        end
        expired = hi
      end
    end
  end
  raw[3 * i - 2], raw[3 * i - 1], raw[3 * i] = size, expired, last
end

--@ load
local W, N = tonumber(ARGV[a]), tonumber(ARGV[a + 1])
local size, expired, last = raw[3 * i - 2], raw[3 * i - 1], raw[3 * i]
local fresh = size == 0

--@ wait
local wait = NEVER
if permits <= N then
  if size - expired + permits <= N then
    wait = 0
  else
    -- The oldest (live + permits - N) live entries must drop out; the last of them decides.
    wait = tonumber(redis.call('LINDEX', KEYS[i], size + permits - N - 1)) + W - now
  end
end

--@ fit
-- How many requests of permits (> 0) the log admits one after the other: while its live entries
-- and theirs are at most N.
do
  local room = N - (size - expired)
  if room >= permits then fit = (room - fmod(room, permits)) / permits end
end

--@ admit
do
  if expired > 0 then redis.call('LTRIM', KEYS[i], expired, -1) end
  size = size - expired
  -- Keep the list ordered even if this caller's clock is slightly behind the newest entry.
  local stamp = now
  if size > 0 and last > now then stamp = last end
  local text = format('%d', stamp)
  -- A charge may ask for more than N; more than N entries of one stamp never matter.
  local todo = permits
  if todo > N then todo = N end
  size, expired, last = size + todo, 0, stamp
  if todo == 1 then
    redis.call('RPUSH', KEYS[i], text)
  else
    while todo > 0 do
      local batch = {}
      for k = 1, math.min(todo, 1000) do batch[k] = text end
      redis.call('RPUSH', KEYS[i], unpack(batch))
      todo = todo - #batch
    end
  end
end

--@ debt
-- After a charge: only the newest N entries can decide a request (one needs at most N - 1 older
-- ones to have dropped out), so the older ones go, as SlidingWindowLog.charge.
if size > N then
  redis.call('LTRIM', KEYS[i], -N, -1)
  size = N
end

--@ refund
do
  local drop = permits
  if drop > size then drop = size end
  if drop > 0 then
    redis.call('RPOP', KEYS[i], drop)
    size = size - drop
    if expired > size then expired = size end
    if size > 0 then last = tonumber(redis.call('LINDEX', KEYS[i], -1)) end
  end
end

--@ remaining
local left = N - (size - expired)

--@ reset
local reset = 0
if size > expired then reset = last + W - now end

--@ delay
local delay = 0

--@ write
redis.call('PEXPIRE', KEYS[i], px)
