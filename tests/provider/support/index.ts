// Shared plumbing of the provider suites (`import ... from "./support"`): the harness every suite
// uses, and the set-up and inputs a few suites of one kind share.
export * from "./branch";
export * from "./governance";
export * from "./harness";
export * from "./project";
