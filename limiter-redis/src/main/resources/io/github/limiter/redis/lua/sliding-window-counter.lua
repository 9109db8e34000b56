-- Sliding window counter, as io.github.limiter.internal.algorithm.SlidingWindowCounter: the
-- previous and the current aligned window's counts, est = prev * (1 - e/W) + curr, compared
-- exactly in integers scaled by W. Stored as "w c q W N": window index, its count, the count
-- before, and the limit they were written under. A state of another limit carries over as
-- SlidingWindowCounter.carry: both counts if W is the same, else the estimate (rounded up) as the
-- count of the window of the carry; counts within 2N. Params: W, N, the version's start. Sections of straight-line code, spliced by Scripts into decide.lua and
-- adjust.lua: see there for the names each one is given (i, a, raw) and must define.

--@ head
local PARAMS = 3
local EXACT = 4503599627370496 -- 2^52: below it, products of counts and W are exact doubles
local LIMB = 16777216 -- 2^24

local function floordiv(x, y)
  local r = fmod(x, y)
  if r < 0 then r = r + y end
  return (x - r) / y
end

-- x * y as six base-2^24 limbs, exact for integers below 2^53; only for limits with N * W > 2^52.
local function product(x, y)
  local x0 = fmod(x, LIMB); local x1 = fmod((x - x0) / LIMB, LIMB); local x2 = floordiv(x, LIMB * LIMB)
  local y0 = fmod(y, LIMB); local y1 = fmod((y - y0) / LIMB, LIMB); local y2 = floordiv(y, LIMB * LIMB)
  local r = { x0 * y0, x0 * y1 + x1 * y0, x0 * y2 + x1 * y1 + x2 * y0, x1 * y2 + x2 * y1, x2 * y2, 0 }
  local carry = 0
  for k = 1, 6 do
    local v = r[k] + carry
    r[k] = fmod(v, LIMB)
    carry = (v - r[k]) / LIMB
  end
  return r
end

-- Whether p * q < r * s, exactly.
local function lt(p, q, r, s, small)
  if small then return p * q < r * s end
  local x, y = product(p, q), product(r, s)
  for k = 6, 1, -1 do
    if x[k] ~= y[k] then return x[k] < y[k] end
  end
  return false
end

-- The least e >= 0 with weight * (W - e) < room * W.
local function first_elapsed(weight, room, W, small)
  if weight < room then return 0 end
  if small then return floordiv(W * (weight - room), weight) + 1 end
  local lo, hi = -1, W
  while hi - lo > 1 do
    local mid = floordiv(lo + hi, 2)
    if lt(weight, W - mid, room, W, small) then hi = mid else lo = mid end
  end
  return hi
end

--@ fetch
-- Decoded once, into the reply's free slots: raw[n + 3i - 2 .. n + 3i] hold key i's w, c and q
-- under this limit (nil when it is missing or unreadable), so that each pass reads three numbers.
-- A bare "w c q" is a state of this limit.
local raw = n > 0 and redis.call('MGET', unpack(KEYS, 1, n)) or {}
for i = 1, n do
  if raw[i] then
    local sw, sc, sq, oW, oN = string.match(raw[i], '^(%-?%d+) (%-?%d+) (%-?%d+) (%d+) (%d+)$')
    if not sw then sw, sc, sq = string.match(raw[i], '^(%-?%d+) (%-?%d+) (%-?%d+)$') end
    sw, sc, sq, oW, oN = tonumber(sw), tonumber(sc), tonumber(sq), tonumber(oW), tonumber(oN)
    local a, k = 4 + (i - 1) * PARAMS, 2
    local W, N = tonumber(ARGV[a]), tonumber(ARGV[a + 1])
    if sw and oW and (oW ~= W or oN ~= N) then
      --+ carry
      local oe = fmod(c, oW)
      if oe < 0 then oe = oe + oW end
      local lag, curr, prev = (c - oe) / oW - sw, 0, 0
      if lag == 0 then curr, prev = sc, sq elseif lag == 1 then prev = sc end
      if oW == W then
        sw, sc, sq = (c - oe) / W, curr, prev
      else
        -- The old estimate, rounded up (in doubles: off by at most one where prev * W > 2^53).
        local e = fmod(c, W)
        if e < 0 then e = e + W end
        sw, sc, sq = (c - e) / W, curr + ceil(prev * (oW - oe) / oW), 0
      end
      if sc > 2 * N then sc = 2 * N end
      if sq > 2 * N then sq = 2 * N end
    end
    if sw then
      raw[n + 3 * i - 2], raw[n + 3 * i - 1], raw[n + 3 * i] = sw, sc, sq
    end
  end
end

--@ load
--+ window
local small = 2 * N * W <= EXACT -- counts reach 2N under debt
local fresh = not raw[i]
-- sw, sc, sq as stored (nil if unreadable); curr and prev as of now.
local sw, sc, sq = raw[n + 3 * i - 2], raw[n + 3 * i - 1], raw[n + 3 * i]
local curr, prev = 0, 0
if sw then
  local lag = w - sw
  if lag == 0 then curr, prev = sc, sq elseif lag == 1 then prev = sc end
end

--@ wait
local wait = NEVER
if permits <= N then
  local allowance = N - permits + 1
  if allowance - curr > 0 and lt(prev, W - e, allowance - curr, W, small) then
    wait = 0
  elseif curr < allowance then
    wait = first_elapsed(prev, allowance - curr, W, small) - e
    if wait > W - e then wait = W - e end
  else
    wait = W - e + first_elapsed(curr, allowance, W, small)
  end
end

--@ fit
-- How many requests of permits (> 0) the window admits one after the other: the m-th finds
-- curr + (m - 1) * permits, and is admitted while prev * (W - e) < (N + 1 - curr - m * permits) * W.
-- In exact doubles that is m * permits * W <= x, below; otherwise the largest such m is searched
-- with the exact comparison, at most g (the group) being asked for.
if small then
  local x, need = (N + 1 - curr) * W - prev * (W - e) - 1, permits * W
  if x >= need then fit = (x - fmod(x, need)) / need end
else
  local lo, hi = 0, g + 1
  while hi - lo > 1 do
    local mid = floordiv(lo + hi, 2)
    local room = N + 1 - curr - mid * permits
    if room > 0 and lt(prev, W - e, room, W, small) then lo = mid else hi = mid end
  end
  fit = lo
end

--@ admit
curr = curr + permits
sw, sc, sq = w, curr, prev

--@ debt
-- After a charge: a current count of at most 2N, as SlidingWindowCounter.charge.
if curr > 2 * N then
  curr = 2 * N
  sc = curr
end

--@ refund
if sw == w then
  sc = sc - permits
  if sc < 0 then sc = 0 end
  curr = sc
end

--@ remaining
local left = 0
do
  local room = N - curr
  if small then
    local slack = room * W - prev * (W - e)
    if slack > 0 then left = floordiv(slack + W - 1, W) end
  elseif room > 0 and lt(prev, W - e, room, W, small) then
    -- ceil(room - prev * (W - e) / W) = room - floor(prev * (W - e) / W)
    local lo, hi = 0, prev + 1
    while hi - lo > 1 do
      local mid = floordiv(lo + hi, 2)
      if lt(prev, W - e, mid, W, small) then hi = mid else lo = mid end
    end
    left = room - lo
  end
end

--@ reset
local reset = 0
if curr > 0 then reset = W - e + W elseif prev > 0 then reset = W - e end

--@ delay
local delay = 0

--@ write
redis.call('SET', KEYS[i], format('%d %d %d %d %d', sw, sc, sq, W, N), 'PX', px)
