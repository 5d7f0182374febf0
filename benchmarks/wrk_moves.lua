-- wrk plays whole games against a table server: benchmarks/server_cost.py runs it.
--
-- Each wrk thread drives one kept-alive connection (run wrk with as many connections as
-- threads: a thread's Lua state is that connection's). It makes a table of three people,
-- then, per move, GETs the payload of the seat that must act and POSTs a numbered move
-- chosen among that payload's legal actions, sent as they came: a discard when one is due,
-- else a bid of the fewest cards about a third of the time (always when it may not pass),
-- else a pass. The
-- answer to a move says who acts next, so no request is spent finding out. When a payload
-- holds the result, the thread makes a new table.
--
-- The bare app (benchmarks/bare_app.py) answers the same requests with the same shapes,
-- so the two are loaded by the very same client.

local threads = {}
local made = 0

function setup(thread)
  made = made + 1
  thread:set("seed", made)
  table.insert(threads, thread)
end

local phase = "create"
local table_id, tokens, seat, number, body_out = nil, {}, 0, 0, nil
moves, games, errors, refetches = 0, 0, 0, 0

local json = {["Content-Type"] = "application/json"}
local create_body = '{"seats":[{"kind":"person","name":"Ada"},{"kind":"person","name":"Ben"},'
  .. '{"kind":"person","name":"Cy"}]}'

function init(args)
  math.randomseed(seed or 1)
end

function request()
  if phase == "create" then
    return wrk.format("POST", "/api/tables", json, create_body)
  end
  local auth = "Bearer " .. tokens[seat + 1]
  if phase == "get" then
    return wrk.format("GET", "/api/tables/" .. table_id .. "/payload?since=" .. number,
      {["Authorization"] = auth})
  end
  return wrk.format("POST", "/api/tables/" .. table_id .. "/actions",
    {["Authorization"] = auth, ["Content-Type"] = "application/json"}, body_out)
end

local function choose(body)
  -- The payload's legal actions are the actions to send (its schema's version 2); a
  -- baseline server of version 1 gives cards and card lists instead.
  local discard = body:match('"discards":%[(%b{})')
  if discard then return discard end
  local pass = body:match('"pass":(%b{})')
  local bid = body:match('"bids":%[{"total":%d+,"action":(%b{})')
  if bid and (not pass or math.random() < 0.35) then return bid end
  if pass then return pass end
  local discards = body:match('"discards":%[([^%]]*)%]')
  if discards and #discards > 0 then
    local card = discards:match('"([^"]+)"')
    return '{"type":"discard","player":' .. seat .. ',"card":"' .. card .. '"}'
  end
  local can_pass = body:find('"pass":true', 1, true) ~= nil
  local cards = body:match('"bids":%[{"total":%d+,"cards":%[([%d,]*)%]')
  if cards and (not can_pass or math.random() < 0.35) then
    return '{"type":"bid","player":' .. seat .. ',"cards":[' .. cards .. ']}'
  end
  return '{"type":"pass","player":' .. seat .. '}'
end

function response(status, headers, body)
  if phase == "create" then
    if status ~= 201 then errors = errors + 1 return end
    table_id = body:match('"table":"([^"]+)"')
    tokens = {}
    for token in body:gmatch('"token":"([^"]+)"') do tokens[#tokens + 1] = token end
    seat, number, phase = 0, 0, "get"
  elseif phase == "get" then
    if status ~= 200 then errors = errors + 1 phase = "create" return end
    if body:find('"result":{', 1, true) then games = games + 1 phase = "create" return end
    number = tonumber(body:match('"number":(%d+)'))
    local actor = tonumber(body:match('"to_act":(%d)'))
    if actor == nil then errors = errors + 1 phase = "create" return end
    if actor ~= seat then refetches = refetches + 1 seat = actor return end
    body_out = '{"action":' .. choose(body) .. ',"number":' .. number .. '}'
    phase = "post"
  else
    phase = "get"
    if status ~= 200 then errors = errors + 1 return end
    moves = moves + 1
    local next_number, actor = body:match('"next":{"number":(%d+),"to_act":(%w+)}')
    if next_number == nil then errors = errors + 1 phase = "create" return end
    number = tonumber(next_number)
    if actor == "null" then games = games + 1 phase = "create" return end
    seat = tonumber(actor) or seat
  end
end

function done(summary, latency, requests)
  local totals = {moves = 0, games = 0, errors = 0, refetches = 0}
  for _, thread in ipairs(threads) do
    for key, _ in pairs(totals) do totals[key] = totals[key] + thread:get(key) end
  end
  io.write(string.format(
    'RESULT {"moves":%d,"games":%d,"errors":%d,"refetches":%d,"requests":%d,'
      .. '"seconds":%.3f,"socket_errors":%d,"non_2xx":%d,"p50_ms":%.3f,"p99_ms":%.3f}\n',
    totals.moves, totals.games, totals.errors, totals.refetches, summary.requests,
    summary.duration / 1e6,
    summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout,
    summary.errors.status, latency:percentile(50) / 1000, latency:percentile(99) / 1000))
end
