"""CUDA device arrays without copies (DLPack). Skipped without a CUDA build and device.

The device arrays come from landscape.cuda (the module's own DLPack-capable arrays), so the test
runs where no CuPy or PyTorch is installed; with CuPy importable it also checks a CuPy array."""
import numpy as np
import pytest

import landscape
from conftest import LJ38_GLOBAL_MINIMUM

pytestmark = pytest.mark.skipif(not landscape.cuda.available(),
                                reason="no CUDA device (landscape.cuda.description() says why)")


def test_lj38_energy_gradient_on_device_arrays_is_zero_copy(lj38_minimum):
    cpu = landscape.lennard_jones(38)
    gpu = landscape.lennard_jones(38, backend="cuda")
    assert gpu.is_device_resident
    x = landscape.cuda.to_device(lj38_minimum)
    g = landscape.cuda.empty((38, 3))
    x_address, g_address = landscape.cuda.data_pointer(x), landscape.cuda.data_pointer(g)
    energy, gradient = gpu.energy_gradient(x, out=g)
    # Zero copy: the gradient was written into the caller's device buffer, and neither array
    # moved (same device addresses before and after).
    assert landscape.cuda.data_pointer(gradient) == g_address
    assert landscape.cuda.data_pointer(x) == x_address
    assert energy == pytest.approx(LJ38_GLOBAL_MINIMUM, abs=1e-6)
    e_cpu, g_cpu = cpu.energy_gradient(lj38_minimum)
    assert energy == pytest.approx(e_cpu, abs=1e-10)
    assert np.allclose(landscape.cuda.to_host(g), g_cpu, atol=1e-10)


def test_amber_trpcage_on_device_arrays(trpcage):
    prmtop, inpcrd = trpcage
    x = landscape.read_inpcrd(inpcrd)
    e_cpu, g_cpu = landscape.amber_gb(prmtop).energy_gradient(x)
    gpu = landscape.amber_gb(prmtop, backend="cuda")
    energy, gradient = gpu.energy_gradient(landscape.cuda.to_device(x))
    assert energy == pytest.approx(e_cpu, abs=1e-6)
    assert np.allclose(landscape.cuda.to_host(gradient), g_cpu, atol=1e-6)


def test_host_only_potential_refuses_device_arrays(lj38_minimum):
    with pytest.raises(ValueError, match="runs on the host"):
        landscape.lennard_jones(38).energy_gradient(landscape.cuda.to_device(lj38_minimum))


def test_minimise_a_device_array_in_place_on_the_gpu(lj38_minimum):
    gpu = landscape.lennard_jones(38, backend="cuda")
    rng = np.random.default_rng(2)
    x = landscape.cuda.to_device(lj38_minimum + 0.03 * rng.standard_normal((38, 3)))
    address = landscape.cuda.data_pointer(x)
    x_min, result = landscape.minimise(gpu, x, landscape.LbfgsParams(rms_tolerance=1e-6))
    assert result.converged and result.energy == pytest.approx(LJ38_GLOBAL_MINIMUM, abs=1e-6)
    assert landscape.cuda.data_pointer(x_min) == address
    assert landscape.lennard_jones(38).energy(landscape.cuda.to_host(x_min)) == \
        pytest.approx(result.energy, abs=1e-9)


def test_batched_lennard_jones_on_device_arrays():
    rng = np.random.default_rng(3)
    x = rng.uniform(-1.5, 1.5, size=(8, 13, 3))
    e_cpu, g_cpu = landscape.batched_lennard_jones(13).energy_gradient(x)
    e, g = landscape.batched_lennard_jones(13, backend="cuda").energy_gradient(
        landscape.cuda.to_device(x))
    assert np.allclose(landscape.cuda.to_host(e), e_cpu, rtol=1e-12)
    assert np.allclose(landscape.cuda.to_host(g), g_cpu, rtol=1e-10, atol=1e-10)


def test_cupy_arrays_when_cupy_is_installed(lj38_minimum):
    cupy = pytest.importorskip("cupy")
    gpu = landscape.lennard_jones(38, backend="cuda")
    x = cupy.asarray(lj38_minimum)
    g = cupy.empty_like(x)
    energy, _ = gpu.energy_gradient(x, out=g)
    assert energy == pytest.approx(LJ38_GLOBAL_MINIMUM, abs=1e-6)
    assert np.allclose(cupy.asnumpy(g), landscape.lennard_jones(38).energy_gradient(
        lj38_minimum)[1], atol=1e-10)


def torch_lennard_jones(torch):
    """LJ in reduced units written in PyTorch on (B, atoms, 3) CUDA tensors, for device models."""

    def model(structures):
        x = torch.from_dlpack(structures)  # the engine's array, no copy
        d = x[:, :, None, :] - x[:, None, :, :]
        r2 = (d * d).sum(-1)
        eye = torch.eye(x.shape[1], dtype=x.dtype, device=x.device)
        inv6 = (1.0 - eye) / (r2 + eye) ** 3
        energies = 2.0 * (inv6 * inv6 - inv6).sum((1, 2))
        coefficient = (-48.0 * inv6 * inv6 + 24.0 * inv6) / (r2 + eye)
        gradients = (coefficient[..., None] * d).sum(2)
        return energies.contiguous(), gradients.contiguous()

    return model


def test_a_pytorch_model_on_the_device_drives_the_rounds_engine():
    """LJ written in PyTorch, called with the engine's device arrays (DLPack, no copies): the
    rounds engine minimises 32 LJ13 starts to the built-in device potential's minima."""
    torch = pytest.importorskip("torch")
    if not torch.cuda.is_available():
        pytest.skip("PyTorch without CUDA")
    model = landscape.FunctionBatchedPotential(torch_lennard_jones(torch), atoms=13, device=True)
    builtin = landscape.batched_lennard_jones(13, backend="cuda")
    starts = np.random.default_rng(5).uniform(0.0, 2.5, (32, 13, 3))
    params = landscape.LbfgsParams(rms_tolerance=1e-7, max_iterations=5000)
    ours, ours_report = landscape.batched_minimiser_over(model, params, "rounds").minimise(starts)
    theirs, theirs_report = landscape.batched_minimiser_over(builtin, params, "rounds").minimise(
        starts)
    assert all(s == "converged" for s in ours_report["status"])
    np.testing.assert_allclose(ours_report["energy"], theirs_report["energy"], atol=1e-8)


def test_gmins_walkers_run_on_a_pytorch_model_on_the_device():
    """gmin's walkers with the rounds engine over the PyTorch LJ13: the built-in walkers'
    lowest minima, LJ13's global one first."""
    torch = pytest.importorskip("torch")
    if not torch.cuda.is_available():
        pytest.skip("PyTorch without CUDA")
    model = landscape.FunctionBatchedPotential(torch_lennard_jones(torch), atoms=13, device=True)
    builtin = landscape.batched_lennard_jones(13, backend="cuda")
    walk = landscape.BasinHoppingParams.gmin_lj38_example()
    walk.steps, walk.seed = 20, 2
    a = landscape.walkers(model, walk, walkers=64, engine="rounds")
    b = landscape.walkers(builtin, walk, walkers=64, engine="rounds")
    assert a.lowest[0].energy == pytest.approx(-44.326801, abs=1e-5)
    np.testing.assert_allclose([m.energy for m in a.lowest], [m.energy for m in b.lowest],
                               atol=1e-5)


def test_device_models_that_fill_the_engines_arrays():
    """Models f(X, out) writing into the engine's device arrays: the built-in kernel called back
    through Python gives the built-in engine's minima bit for bit, and a PyTorch LJ13 writing with
    copy_ the built-in minima (1e-8); energies left unwritten stop the run as non-finite."""
    builtin = landscape.batched_lennard_jones(13, backend="cuda")
    starts = np.random.default_rng(6).uniform(0.0, 2.5, (32, 13, 3))
    params = landscape.LbfgsParams(rms_tolerance=1e-7, max_iterations=5000)

    def wrapped(x, out):
        builtin.energy_gradient(x, out=out)

    ours, ours_report = landscape.batched_minimiser_over(
        landscape.FunctionBatchedPotential(wrapped, atoms=13, device=True), params,
        "rounds").minimise(starts)
    theirs, theirs_report = landscape.batched_minimiser_over(builtin, params, "rounds").minimise(
        starts)
    np.testing.assert_array_equal(ours, theirs)
    np.testing.assert_array_equal(ours_report["energy"], theirs_report["energy"])

    def gradients_only(x, out):
        energies = landscape.cuda.empty([len(starts)])
        builtin.energy_gradient(x, out=(energies, out[1]))

    _, report = landscape.batched_minimiser_over(
        landscape.FunctionBatchedPotential(gradients_only, atoms=13, device=True), params,
        "rounds").minimise(starts)
    assert set(report["status"]) == {"non-finite energy"}

    torch = pytest.importorskip("torch")
    if not torch.cuda.is_available():
        pytest.skip("PyTorch without CUDA")
    model = torch_lennard_jones(torch)

    def torch_into(x, out):
        energies, gradients = model(x)
        torch.from_dlpack(out[0]).copy_(energies)
        torch.from_dlpack(out[1]).copy_(gradients)

    _, torch_report = landscape.batched_minimiser_over(
        landscape.FunctionBatchedPotential(torch_into, atoms=13, device=True), params,
        "rounds").minimise(starts)
    assert all(s == "converged" for s in torch_report["status"])
    np.testing.assert_allclose(torch_report["energy"], theirs_report["energy"], atol=1e-8)


def test_pair_potentials_on_the_device_are_the_cpus():
    """kob_andersen and morse with backend='cuda' (the factories' CUDA pair potentials) against
    the CPU reference, on host and device arrays, single and batched; the model is recorded on the
    device potential as on the CPU one."""
    atoms = 1000
    edge = (atoms / 1.2) ** (1 / 3)
    cpu = landscape.kob_andersen(atoms, edge)
    gpu = landscape.kob_andersen(atoms, edge, backend="cuda")
    assert gpu.is_device_resident and gpu.backend == "cuda"
    assert gpu.pair_model is not None and gpu.pair_model.box == cpu.pair_model.box
    rng = np.random.default_rng(3)
    grid = np.stack(np.meshgrid(*[np.arange(10)] * 3, indexing="ij"), -1).reshape(-1, 3)
    x = grid * (edge / 10) + 0.1 * rng.standard_normal((atoms, 3))  # a liquid-like start
    e_cpu, g_cpu = cpu.energy_gradient(x)
    scale = np.abs(g_cpu).max()
    for energy, gradient in (gpu.energy_gradient(x),
                             gpu.energy_gradient(landscape.cuda.to_device(x))):
        if not isinstance(gradient, np.ndarray):
            gradient = landscape.cuda.to_host(gradient)
        assert energy == pytest.approx(e_cpu, rel=1e-12)
        assert np.abs(gradient - g_cpu).max() <= 1e-10 * scale
    x_min, result = landscape.minimise(gpu, landscape.cuda.to_device(x),
                                       landscape.LbfgsParams(max_iterations=20000))
    assert result.converged
    assert cpu.energy(landscape.cuda.to_host(x_min)) == pytest.approx(result.energy, rel=1e-10)
    morse = landscape.morse(13, backend="cuda")
    y = x[:13] * 0.3
    assert morse.energy(y) == pytest.approx(landscape.morse(13).energy(y), rel=1e-12)
    batched = landscape.batched_pair_potential(cpu.pair_model, backend="cuda")
    energies, gradients = batched.energy_gradient(np.stack([x, x + 0.01]))
    assert energies[0] == pytest.approx(e_cpu, rel=1e-12)
    assert energies[1] == pytest.approx(cpu.energy(x + 0.01), rel=1e-12)
    assert np.abs(gradients[0] - g_cpu).max() <= 1e-10 * scale
