dims = (224, 224)
dims = dims + "3"
