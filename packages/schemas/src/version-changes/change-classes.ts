// A change's class and the reason for it, as every rule of the classifier (classify.ts, key-changes.ts)
// gives them.
export const compatible = (reason: string) => ({ compatibility: 'compatible' as const, reason });
export const breaking = (reason: string) => ({ compatibility: 'breaking' as const, reason });
