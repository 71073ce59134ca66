print("fairfuel")
