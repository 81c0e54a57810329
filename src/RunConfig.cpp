// Implemented by the RunConfig work in progress.
