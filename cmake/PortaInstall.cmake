# install rules (filled in with the core)
