"""Source: https://github.com/BirkhoffG/jax-dataloader/issues/2
Library: plain-jax
Reported: a jax_dataloader DataLoaderJax passed to a jitted function fails with "Argument '<jax_dataloader.core.DataLoaderJax object ...>' ... is not a valid JAX type".
Transcribed: as reported, with the missing 'import jax'.
Hard: the data loader is a plain library object built from a torchvision dataset; the checker must know DataLoaderJax is no pytree.
Run: no (torch and torchvision are not installed, and the MNIST download needs the network)
"""
import jax
import jax_dataloader.core as jdl
from torch.utils.data import DataLoader, TensorDataset
from torchvision.transforms import ToTensor
from torchvision.datasets import MNIST

train_ds = MNIST('/tmp/mnist/', download=True, transform=ToTensor())
X, Y = train_ds.data.numpy(), train_ds.targets.numpy()
ds = jdl.Dataset(X, Y)
train_loader = jdl.DataLoaderJax(ds, batch_size=5, shuffle=False, drop_last=False)

@jax.jit
def foo(train_loader):
    train_iter = iter(train_loader)
    Xtr, Ytr = next(train_iter)
    print(Xtr.shape, Ytr.shape, Xtr[0].shape, Ytr[0].shape) # 5, 28, 28) (5,) (28, 28) ()

foo(train_loader) # fails  # expect: jit-unsupported-argument
