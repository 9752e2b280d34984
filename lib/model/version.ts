// The package version and what is named after it.

export const PACKAGE_VERSION = '0.1.0';

/** The runtime image built from runtime/Dockerfile for this version of the package. */
export const DEFAULT_RUNTIME_IMAGE = `seatunnel-app-runtime:${PACKAGE_VERSION}`;
