-- Reads what every limit has left for the keys, writing nothing: the state as decide.lua finds it
-- now (carried over to these limits), not charged. Returns {remaining, resetAfter} of each limit
-- in turn, times in microseconds: the algorithm's limits, then the calendar quotas, whose keys and
-- parameters follow theirs as in decide.lua (the last ARGV is q, the number of quotas). A missing
-- key reads as fresh. The caller picks the binding limit, in the policy's order. Or { now }, as
-- decide.lua.
-- A template, like decide.lua: Scripts splices the algorithm's sections in at the "--@ name" lines.
local n = #KEYS
--[ quotas
local q = tonumber(ARGV[#ARGV])
n = n - q
--]
local format, ceil, fmod = string.format, math.ceil, math.fmod
--@ head
local read = {}
if n > 0 then
  --@ fetch
  for i = 1, n do
    local a = 4 + (i - 1) * PARAMS
    --@ load
    --@ remaining
    --@ reset
    if left < 0 then left = 0 end
    read[2 * i - 1], read[2 * i] = left, reset
  end
end
--[ quotas
for j = 1, q do
  --@ quota
  --@ quotaleft
  read[2 * (n + j) - 1], read[2 * (n + j)] = qleft, qreset
end
--]
return read
