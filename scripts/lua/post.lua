-- POST a JSON body with a Content-Type header on every request.
-- Only the wrk table is changed, at the top level: the request is still
-- built once, so this costs nothing per request.
--   pummel -s scripts/lua/post.lua http://localhost:8080/items

wrk.method = "POST"
wrk.body = '{"name":"pummel","count":3}'
wrk.headers["Content-Type"] = "application/json"
