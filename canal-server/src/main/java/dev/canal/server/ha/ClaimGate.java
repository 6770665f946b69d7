package dev.canal.server.ha;

import java.time.Duration;

/**
 * Whether this server may take one more destination now (the balancing's share, {@link PlacementBalancer}), and
 * when a server that declined a destination without holder looks at it again.
 */
interface ClaimGate {

    /** Canal's first come, first served: every destination is claimed by whoever asks first. */
    ClaimGate ANYONE = new ClaimGate() {
        @Override
        public boolean mayClaim() {
            return true;
        }

        @Override
        public Duration recheck() {
            return Duration.ofSeconds(1);
        }
    };

    boolean mayClaim();

    Duration recheck();
}
