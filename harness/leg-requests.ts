// The random requests of the contract suite on the SQL and balancer legs (docs/contract-suite.md, "Every store").
// They judge the pipeline in front of every store, which the memory leg does with 10,000 generated requests and 40
// well-formed ones an operation; here 340 (20 an operation) and 8 still reach every operation on the store, and
// npm test keeps to its minutes (docs/decisions/025-ci-minutes.md). Set either variable to send more.
export const SQL_LEG_REQUESTS = {
  GENERATED_INPUT_REQUESTS: process.env.GENERATED_INPUT_REQUESTS ?? '340',
  CONFORMANCE_PER_OPERATION: process.env.CONFORMANCE_PER_OPERATION ?? '8',
}
