const CIDR =
  /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}\/(3[0-2]|[12]?\d)$/;

/**
 * The string formats the schemas use, and how a diagnostic explains them. ajv checks `email` and
 * `ipv4` with ajv-formats' own patterns (their `test` here only names them); the others with the
 * `test` given.
 */
export const FORMATS: Record<string, { test: RegExp; means: string }> = {
  cidr: { test: CIDR, means: 'an IPv4 CIDR range such as 10.20.0.0/16' },
  'k8s-version': {
    test: /^v\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$/,
    means: 'a v-prefixed Kubernetes version such as v1.29.4',
  },
  // The spec: "duration with unit suffix"; h, m and s in that order, each at most once, as
  // api/fragments/clusters.yaml (SoakDuration) accepts.
  duration: {
    test: /^(?=\d)(\d+(\.\d+)?h)?(\d+(\.\d+)?m)?(\d+(\.\d+)?s)?$/,
    means: 'a duration with unit suffixes h, m or s, such as 60s, 5m or 1h30m',
  },
  'controller-version': {
    test: /^v\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$/,
    means: 'a v-prefixed version such as v1.6.2',
  },
  // RFC 3339 with its offset (a PowerSchedule exception, platctl.io/keep-on-until)
  'date-time': {
    test: /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])[Tt ]([01]\d|2[0-3]):[0-5]\d:[0-5]\d(\.\d+)?([Zz]|[+-]([01]\d|2[0-3]):[0-5]\d)$/,
    means: 'an RFC 3339 time with its offset, such as 2026-11-26T22:00:00+01:00',
  },
  email: { test: /@/, means: 'an e-mail address such as alice@acme.example' },
  ipv4: { test: /\./, means: 'an IPv4 address such as 10.20.0.1' },
};
