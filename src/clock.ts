/** The time source every service takes at construction, so tests can move time instead of waiting for it. */
export type Clock = () => Date;
