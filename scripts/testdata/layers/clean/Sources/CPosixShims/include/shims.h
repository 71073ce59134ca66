int fairfuel_shim(void);
