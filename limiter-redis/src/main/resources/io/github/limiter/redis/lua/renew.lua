-- Renews this node's holds on the permits it holds, for the algorithms whose permits are held while
-- a request runs (concurrency). Returns the number of holds renewed.
-- A template, like decide.lua: Scripts splices the algorithm's sections in at the "--@ name" lines.
local n = #KEYS
local format, ceil, fmod = string.format, math.ceil, math.fmod
--@ head
--@ renew
