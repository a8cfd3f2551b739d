/** The command line itself is wrong: the CLI prints the usage and exits 2, before touching any data. */
export class UsageError extends Error {}
