-- Log in once per thread, then send the token the server handed back.
-- Until a token arrives, requests POST the credentials to /login; the
-- X-Auth-Token header of a 200 response becomes "Authorization: Bearer ..."
-- on every later request. (Several connections may log in at first: each
-- sends a login until the first response comes back.)
--   pummel -s scripts/lua/auth.lua http://localhost:8080/ -- user:secret

local credentials = "user:secret"
local token

function init(args)
  credentials = args[1] or credentials
end

function request()
  if token then
    return wrk.format() -- wrk.headers now carries the token
  end
  return wrk.format("POST", "/login", nil, credentials)
end

function response(status, headers, body)
  if token or status ~= 200 then
    return
  end
  token = headers["X-Auth-Token"] or headers["x-auth-token"]
  if token then
    wrk.headers["Authorization"] = "Bearer " .. token
  end
end
