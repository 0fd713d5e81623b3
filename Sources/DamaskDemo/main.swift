print("damask-demo")
