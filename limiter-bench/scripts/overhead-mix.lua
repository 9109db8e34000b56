-- wrk script for overhead.sh: every connection sends the paths of MIX (space-separated) in turn,
-- so that all of them share the machine's state at every moment.
local paths = {}
for p in string.gmatch(os.getenv("MIX") or "/bare/x", "%S+") do paths[#paths + 1] = p end
local next_path = 0
request = function()
  next_path = next_path % #paths + 1
  return wrk.format("GET", paths[next_path])
end
