// The wall clock the engine and the fake provider share, which a measure can move on: the engine
// sends at most one token request per session per 10 s (its session protocol, rule 5, counting
// the sign-in's code exchange), so a renewal measured right after sign-in would send nothing.
const realNow = Date.now.bind(Date);
let clockOffset = 0;
Date.now = () => realNow() + clockOffset;

/** Moves the wall clock on by `ms`. */
export function skipClock(ms: number): void {
  clockOffset += ms;
}

/** Moves the wall clock past the 10 s between token requests. */
export function passTokenFloor(): void {
  skipClock(11_000);
}
