print("damask-bench")
