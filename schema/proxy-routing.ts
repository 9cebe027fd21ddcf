// How a request to the proxy names its run, for a load balancer in front of many proxies: the worker sets
// it on every call, break and terminal relay; the balancer's configuration (scripts/balancer.ts and
// docs/deploy.md) hashes on it, so one run's requests reach one proxy while that proxy is up.
export const RUN_ID_HEADER = 'x-bandit-run';
