-- Reads what every limit has left for the keys, writing nothing: the state as decide.lua finds it
-- now (carried over to these limits), not charged. Returns {limit (1-based), remaining, resetAfter}
-- of the limit with the fewest permits left, times in microseconds; a missing key reads as fresh.
-- A template, like decide.lua: Scripts splices the algorithm's sections in at the "--@ name" lines.
local n = #KEYS
local format, ceil, fmod = string.format, math.ceil, math.fmod
--@ head
--@ fetch
local least, bind, least_reset = nil, 1, 0
for i = 1, n do
  local a = 4 + (i - 1) * PARAMS
  --@ load
  --@ remaining
  --@ reset
  if left < 0 then left = 0 end
  if least == nil or left < least then least, bind, least_reset = left, i, reset end
end
return { bind, least, least_reset }
