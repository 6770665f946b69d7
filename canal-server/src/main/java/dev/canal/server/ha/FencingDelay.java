package dev.canal.server.ha;

import java.time.Duration;

/**
 * How long a server keeps serving after its ZooKeeper connection was suspended before it stops its instances
 * (fencing): a third of the session timeout T the ensemble granted, but never more than half the other servers'
 * takeover delay D. Why a stop then still comes before any other server can start the destination
 * ({@link ServerRunningMonitor} has the whole argument): the client suspends after hearing nothing for 2T/3 and
 * the ensemble expires the session T after it last heard the client, so the session usually outlives the
 * suspension by about T/3 and at worst not at all; the other server then waits D more. Fencing within
 * min(T/3, D/2) leaves at least D/2 for the stop in the worst case and usually T/3 + D/2 or more.
 */
public final class FencingDelay {

    private FencingDelay() {
    }

    /** The grace for a suspended connection, given the negotiated session timeout and the takeover delay. */
    public static Duration of(Duration negotiatedSession, Duration takeoverDelay) {
        if (negotiatedSession.isNegative() || takeoverDelay.isNegative()) {
            throw new IllegalArgumentException("session " + negotiatedSession + " and takeover delay "
                    + takeoverDelay + " must not be negative");
        }
        Duration third = negotiatedSession.dividedBy(3);
        Duration half = takeoverDelay.dividedBy(2);
        return third.compareTo(half) <= 0 ? third : half;
    }
}
