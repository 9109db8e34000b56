-- Sliding window counter, as io.github.limiter.internal.algorithm.SlidingWindowCounter: the previous and
-- the current aligned window's counts, est = prev * (1 - e/W) + curr, compared exactly in
-- integers scaled by W. Stored as "w curr prev". Params: W, N.
local PARAMS = 2
local EXACT = 4503599627370496 -- 2^52: below it, products of counts and W are exact doubles
local LIMB = 16777216 -- 2^24

local function params(a)
  local W = tonumber(ARGV[a])
  local N = tonumber(ARGV[a + 1])
  return { W = W, N = N, w = floordiv(now, W), e = floormod(now, W), small = N * W <= EXACT }
end

-- a * b as six base-2^24 limbs, exact for integers below 2^53.
local function product(a, b)
  local a0 = floormod(a, LIMB); local a1 = floormod((a - a0) / LIMB, LIMB); local a2 = floordiv(a, LIMB * LIMB)
  local b0 = floormod(b, LIMB); local b1 = floormod((b - b0) / LIMB, LIMB); local b2 = floordiv(b, LIMB * LIMB)
  local r = { a0 * b0, a0 * b1 + a1 * b0, a0 * b2 + a1 * b1 + a2 * b0, a1 * b2 + a2 * b1, a2 * b2, 0 }
  local carry = 0
  for k = 1, 6 do
    local v = r[k] + carry
    r[k] = floormod(v, LIMB)
    carry = (v - r[k]) / LIMB
  end
  return r
end

-- Whether a * b < c * d, exactly.
local function lt(a, b, c, d, p)
  if p.small then return a * b < c * d end
  local x, y = product(a, b), product(c, d)
  for k = 6, 1, -1 do
    if x[k] ~= y[k] then return x[k] < y[k] end
  end
  return false
end

local function read(limits)
  local raw = redis.call('MGET', unpack(KEYS))
  local states, missing = {}, {}
  for i = 1, #KEYS do
    local p = limits[i]
    missing[i] = not raw[i]
    local s = { stored = false, curr = 0, prev = 0 }
    if raw[i] then
      local w, c, q = string.match(raw[i], '^(%-?%d+) (%-?%d+) (%-?%d+)$')
      if w then
        w, c, q = tonumber(w), tonumber(c), tonumber(q)
        s.stored = true
        s.w, s.c, s.q = w, c, q
        local lag = p.w - w
        if lag == 0 then s.curr, s.prev = c, q elseif lag == 1 then s.prev = c end
      end
    end
    states[i] = s
  end
  return states, missing
end

local function admissible(s, p)
  local allowance = p.N - permits + 1 - s.curr
  if allowance <= 0 then return false end
  return lt(s.prev, p.W - p.e, allowance, p.W, p)
end

-- The least e >= 0 with weight * (W - e) < room * W.
local function first_elapsed(weight, room, p)
  if weight < room then return 0 end
  if p.small then return floordiv(p.W * (weight - room), weight) + 1 end
  local lo, hi = -1, p.W
  while hi - lo > 1 do
    local mid = floordiv(lo + hi, 2)
    if lt(weight, p.W - mid, room, p.W, p) then hi = mid else lo = mid end
  end
  return hi
end

local function retry_after(i, s, p)
  if permits > p.N then return NEVER end
  if admissible(s, p) then return 0 end
  local allowance = p.N - permits + 1
  local until_next = p.W - p.e
  if s.curr < allowance then
    local wait = first_elapsed(s.prev, allowance - s.curr, p) - p.e
    if wait < until_next then return wait end
    return until_next
  end
  return until_next + first_elapsed(s.curr, allowance, p)
end

local function admit(i, s, p)
  return { stored = true, w = p.w, c = s.curr + permits, q = s.prev, curr = s.curr + permits, prev = s.prev }
end

local function refund(i, s, p)
  if not s.stored or s.w ~= p.w then return s end
  local c = s.c - permits
  if c < 0 then c = 0 end
  return { stored = true, w = s.w, c = c, q = s.q, curr = c, prev = s.prev }
end

local function remaining(s, p)
  local room = p.N - s.curr
  if p.small then
    local slack = room * p.W - s.prev * (p.W - p.e)
    if slack > 0 then return floordiv(slack + p.W - 1, p.W) end
    return 0
  end
  if room <= 0 or not lt(s.prev, p.W - p.e, room, p.W, p) then return 0 end
  -- ceil(room - prev * (W - e) / W) = room - floor(prev * (W - e) / W)
  local lo, hi = 0, s.prev + 1
  while hi - lo > 1 do
    local mid = floordiv(lo + hi, 2)
    if lt(s.prev, p.W - p.e, mid, p.W, p) then hi = mid else lo = mid end
  end
  return room - lo
end

local function reset_after(s, p)
  local until_next = p.W - p.e
  if s.curr > 0 then return until_next + p.W end
  if s.prev > 0 then return until_next end
  return 0
end

local function delay(s, p)
  return 0
end

local function write(i, s, p, reset)
  redis.call('SET', KEYS[i], string.format('%d %d %d', s.w, s.c, s.q), 'PX', ttl(reset))
end
